class Store:
    def save(self, path, data):
        with open(path, "w", encoding="utf-8") as f:
            f.write(data)
