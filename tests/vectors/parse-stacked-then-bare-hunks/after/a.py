class A:
    def f(self):
        return 10
tail = 2
