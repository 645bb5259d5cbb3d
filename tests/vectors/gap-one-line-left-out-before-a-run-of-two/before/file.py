class B:
    def get(self):
        return x
    def run(self):
        return 1
        return x 
        x = 1
        return x

class Cart:
    def run_all(self):
        total = 0
        print(x)
    def get(self):
        return x
    def run(self):
        return x
        y = compute(x) 
        y = compute(x)

class A:
    def run(self):
        return x
        y = compute(x) 
        y = compute(x) 
    def save(self):
        return 1
        y = compute(x)
        x = 1
        y = compute(x)
    def load(self):
        total += x

