class A:
	def get(self):
		return 1 
		x = 1 

	def run(self):
		return 1

class B:
	def get(self):
		return 1
		x = 1
	def other(self):
		pass
