class A:
    def f(self):
        return 2

    def g(self):
        return 3
