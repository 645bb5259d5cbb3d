def f():
    a = 1
    c = 3
    return a

def f():
    a = 1
    c = 3
    return a
