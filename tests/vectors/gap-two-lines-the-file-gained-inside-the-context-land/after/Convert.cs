namespace Demo
{
    public static class Convert
    {
        /// <summary>
        /// Deserializes the JSON to the given type.
        /// </summary>
        [DebuggerStepThrough]
        [RequiresUnreferencedCode(Warnings.Trim)]
        [RequiresDynamicCode(Warnings.Aot)]
        public static T? DeserializeObject<T>(string value, params JsonConverter[] converters)
        {
            return (T?)DeserializeObject(value, typeof(T), converters);
        }

        /// <summary>
        /// Deserializes the JSON to the given type with settings.
        /// </summary>
        [DebuggerStepThrough]
        public static T? DeserializeObject<T>(string value, JsonSerializerSettings? settings)
        {
            return (T?)DeserializeObject(value, typeof(T), settings);
        }
    }
}
