import os
import sys

def load(path):
    with open(path) as f:
        return f.read()

def save(path, text):
    with open(path, 'w') as f:
        f.write(text)
