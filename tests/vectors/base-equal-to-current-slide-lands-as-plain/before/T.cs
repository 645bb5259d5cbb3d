    [Test]
    public void A()
    {
        Run();
    }

    [Test]
    public void B()
    {
    }

    [Test]
    public void C()
    {
    }
