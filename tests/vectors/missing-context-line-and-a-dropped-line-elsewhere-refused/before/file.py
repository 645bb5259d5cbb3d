def g():
    alpha = 1
    beta = 2
    extra = 7
    gamma = 3
    delta = 4
x1 = 1
x2 = 2
x3 = 3
x4 = 4
x5 = 5
x6 = 6
x7 = 7
x8 = 8
x9 = 9
x10 = 10
x11 = 11
x12 = 12
def h():
    alpha = 1
    gamma = 3
    delta = 4
