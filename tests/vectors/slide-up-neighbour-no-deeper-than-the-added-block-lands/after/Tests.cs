namespace Tests
{
    public class ReadTests
    {
        [Test]
        public void Read_Empty_ReturnsFalse()
        {
            Assert.IsFalse(Read(""));
        }

        [Test]
        public void ReadAsInt32_TooLarge()
        {
            Assert.Throws(() => Read("9999999999"));
        }

        [Test]
        public void ReadAsInt32_Negative()
        {
            Assert.AreEqual(-1, Read("-1"));
        }
    }
}
