class A:
    def f(self):
        return 1

    def run(self):
        return 1
class B:
    def run(self):
        return 1
