class A:
	def save(self):
		total = 0
		return x
		return 1
		return 1 

