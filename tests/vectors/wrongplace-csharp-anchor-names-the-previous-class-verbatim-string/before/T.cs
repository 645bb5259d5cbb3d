namespace N
{
    public class ReadTests
    {
        public void A()
        {
            string json = @"{
  ""a"": 1
}";
            Check(json);
        }

        public void B()
        {
            Run(2);
        }
    }

    public class WriteTests
    {
        public void C()
        {
            Write(3);
        }
    }
}
