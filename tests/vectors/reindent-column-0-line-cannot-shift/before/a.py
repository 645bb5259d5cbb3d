class A:
    def f(self):
        x = 1
        y = 2
