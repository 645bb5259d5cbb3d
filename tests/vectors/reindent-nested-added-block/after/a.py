class A:
    def f(self):
        if x:
            y = 2
            if y:
                return y
