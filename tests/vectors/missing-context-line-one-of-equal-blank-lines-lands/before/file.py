import os

class Loader:
    pass
