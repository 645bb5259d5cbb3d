class Options
{
    public Options()
    {
        this.Culture = CultureInfo.InvariantCulture;
    }

    public string Name { get; set; }
}
