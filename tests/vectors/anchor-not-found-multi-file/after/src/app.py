class App:
    x = 2
