namespace N
{
    public class JsonSerializerTest
    {
        public void A()
        {
            string json = @"{
""Name"": ""x"",
""Open"": ""{""
}";
            char c = '{';
            string s = "{ \" {";
            // a { in a comment
            /* and { in
               a block comment */
            Run(1);
        }

        public void B()
        {
            Run(2);
        }
    }

    public class Other
    {
        public void B()
        {
            Run(2);
            Run(3);
        }
    }
}
