class A:
    x = 1

    def run(self):
        x = 1

        y = 2
