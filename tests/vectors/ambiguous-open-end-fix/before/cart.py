class Cart:
	def save(self):
		x = 1
		total += x
	def load(self):
		x = 1
