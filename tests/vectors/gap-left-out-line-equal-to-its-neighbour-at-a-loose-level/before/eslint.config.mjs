export default tseslint.config(
  {
    rules: {
      'vitest/consistent-test-it': [
        'error',
        { fn: 'it' },
      ],
    },
  },
  {
    files: ['*.js'],
    rules: {
      'no-require-imports': 'off',
    },
  },
)
