def f():
    return 2

def g():
    return 3

def f():
    return 1
