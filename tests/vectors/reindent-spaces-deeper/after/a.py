class A:
    def f(self):
        x = 1
        y = x + 1
        return y
