class A:
    def f(self):
        return 1
tail = 1
