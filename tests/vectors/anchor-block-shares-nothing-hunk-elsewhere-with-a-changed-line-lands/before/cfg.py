class Config:
    def load(self):
        data = read()
        return data


def other():
    return 1


def helper():
    x = compute(1)
    y = transform(x)
    z = finish(y)
    return z
