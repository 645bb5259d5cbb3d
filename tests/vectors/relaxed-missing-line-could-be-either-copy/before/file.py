class A:
    def run_all(self):
        if x:
        x = 1
    def run_all(self):
        if x:
        x = 1 
    def run_all(self):
        if x: 
        x = 1

class A:
    def run_all(self):
        if x:
        x = 1
    def get(self):
        total += x
        x = 1
        total += x 
        return 1
    def run(self):
        y = compute(x)
        return x
        y = compute(x)
        if x:

