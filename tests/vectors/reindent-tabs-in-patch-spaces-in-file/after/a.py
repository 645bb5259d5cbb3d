def f():
    if x:
        y = 2
