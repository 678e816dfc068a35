package vimjson

// PipeBuf is pipeBuf, for the tests of Writer.
const PipeBuf = pipeBuf
