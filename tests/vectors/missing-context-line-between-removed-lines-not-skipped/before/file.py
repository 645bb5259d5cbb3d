def f():
    first = 1
    third = 3
    return first
