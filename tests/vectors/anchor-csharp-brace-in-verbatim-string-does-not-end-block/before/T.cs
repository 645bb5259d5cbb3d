public class T
{
    string json = @"
}
";

    void B()
    {
        Run(2);
    }
}

public class U
{
    void B()
    {
        Run(2);
    }
}
