class A:
    def get(self):
        print(x)
        return x
        total = 0
        if x:
    def get(self):
        print(x)
        return x
        total = 0
        if x:

class B:
    def run_all(self):
        total = 0
        return x

