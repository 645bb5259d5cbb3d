def load(path):
    with open(path) as f:
        return f.read().strip()

def save(path, text):
    with open(path, 'w') as f:
        f.write(text)
