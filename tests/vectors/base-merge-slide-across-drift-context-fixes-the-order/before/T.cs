    [Test]
    public void A()
    {
    }

    [Test]
    public void B()
    {
    }

    [Test]
    public void X()
    {
    }

    [Test]
    public void C()
    {
    }
