"""What every rule set's pure core shares: problems and refusals in the API's error format.

Pure like the cores that use it: no web, storage or PDF library is imported here.
"""
