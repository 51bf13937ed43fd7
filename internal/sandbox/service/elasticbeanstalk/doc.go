// Package elasticbeanstalk is the sandbox's Elastic Beanstalk (query/XML; SigV4 signing name elasticbeanstalk).
// Service says what it serves from which world models; the rules are
// internal/sandbox/doc.go's.
package elasticbeanstalk
