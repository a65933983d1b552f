extension UnigramTokenizer: SubwordTokenizer {}
