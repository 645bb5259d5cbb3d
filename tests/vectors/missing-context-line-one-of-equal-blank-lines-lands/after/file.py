import os

class Reader:
    pass
