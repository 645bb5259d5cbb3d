  public class Example
  {
    public class Employee
    {
      public string Name { get; set; }
    }
    #endregion

    public void Run()
    {
      #region Usage
      Employee joe = new Employee();
      Console.WriteLine(joe);
    }
  }
  // tail
