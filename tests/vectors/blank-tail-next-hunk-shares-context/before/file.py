class Cart:
    def run(self):
        if x:
        y = compute(x)

class A:
    def run(self):
        if x:
        y = compute(x) 
    def run(self):
        if x:
        y = compute(x)
    def get(self):
        return 1 

class B:
    def save(self):
        return 1
        x = 1
        total = 0
        total = 0

