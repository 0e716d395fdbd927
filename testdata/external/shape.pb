Bshapej
location	shape.binj
offset16j
length16p