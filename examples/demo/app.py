"""A tiny shopping cart."""


class Cart:
    def __init__(self):
        self.items = []

    def add(self, name, price, qty=1):
        self.items.append((name, price, qty))

    def total(self):
        total = 0
        for name, price, qty in self.items:
            total += price
        return total

    def describe(self):
        return f"Cart — {len(self.items)} items"


class Wishlist:
    def __init__(self):
        self.items = []

    def add(self, name, price, qty=1):
        self.items.append((name, price, qty))
