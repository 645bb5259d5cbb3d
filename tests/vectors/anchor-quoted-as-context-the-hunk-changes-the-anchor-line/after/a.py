class A:
    x = 1

    def go(self):
        x = 1

        y = 2
