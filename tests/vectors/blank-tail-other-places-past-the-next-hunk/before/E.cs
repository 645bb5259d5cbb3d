  public class Example
  {
    public class Employee
    {
      public string Name { get; set; }
    }

    public void Run()
    {
      Employee joe = new Employee();
      Console.WriteLine(joe);
    }
  }
  // tail
