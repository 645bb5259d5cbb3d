def f():
    a = 1
    c = 4
    return a
