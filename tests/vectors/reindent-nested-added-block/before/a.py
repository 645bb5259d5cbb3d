class A:
    def f(self):
        if x:
            return 1
