public class T
{
    string json = @"
}
";

    void B()
    {
        Run(4);
    }
}

public class U
{
    void B()
    {
        Run(2);
    }
}
