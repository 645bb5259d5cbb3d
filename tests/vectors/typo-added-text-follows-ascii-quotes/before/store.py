class Store:
    def save(self, path, data):
        with open(path, "w") as f:
            f.write(data)
