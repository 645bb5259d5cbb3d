class App:
    x = 1
