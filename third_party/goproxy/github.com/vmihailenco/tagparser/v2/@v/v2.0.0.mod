module github.com/vmihailenco/tagparser/v2

go 1.15
