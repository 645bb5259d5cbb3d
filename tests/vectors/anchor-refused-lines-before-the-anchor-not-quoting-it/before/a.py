def foo():
    return 1
x = 2
def bar():
    return 3
