describe('a', () => {
  it('x', () => {
    expect(1)
  })
})
