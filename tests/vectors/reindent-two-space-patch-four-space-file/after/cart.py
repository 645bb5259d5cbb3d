class Cart:
    def __init__(self):
        self.items = []

    def add(self, item):
        if item.qty > 0:
            self.items.append(item)
