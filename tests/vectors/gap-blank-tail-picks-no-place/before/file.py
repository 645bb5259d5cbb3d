class B:
    def run(self):
        if x:
        print(x)
        total += x
        return x
    def run(self):
        if x:
        print(x)
        total += x
        return x

