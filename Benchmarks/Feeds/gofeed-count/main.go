// gofeed-count: the reference of issue 29's feed target — gofeed parses the file
// and the item count is printed, nothing stored.
//
//	GOPATH=/usr/share/gocode GO111MODULE=off go build -o gofeed-count ./Benchmarks/Feeds/gofeed-count
//	./gofeed-count feed.rss
//
// gofeed 1.1.3 from Debian: apt-get install golang-go golang-github-mmcdole-gofeed-dev.
package main

import (
	"fmt"
	"os"

	"github.com/mmcdole/gofeed"
)

func main() {
	file, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(66)
	}
	defer file.Close()
	feed, err := gofeed.NewParser().Parse(file)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(65)
	}
	fmt.Println(len(feed.Items))
}
