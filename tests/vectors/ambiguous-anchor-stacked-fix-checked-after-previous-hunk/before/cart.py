class A:
    def load(self):
        x = 1
    def load(self):
        return x
        return 1
        return x

class A:
    def save(self):
        y = compute(x)
