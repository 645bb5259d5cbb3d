module M
  class A
    def f
      x = 1
    end
  end
  class B
    def f
      x = 1
    end
  end
end
