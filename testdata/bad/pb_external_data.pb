Bxj
locationx.binp